package download

// WithAfterHashForTest runs fn after the bytes were hashed and before the
// identity recheck, so tests can change the file at exactly that moment.
func WithAfterHashForTest(fn func(path string)) Option {
	return func(o *options) { o.afterHash = fn }
}

// ValidGUIDForTest exposes the GUID validator to the fuzz target.
func ValidGUIDForTest(s string) bool { return validGUID(s) }

// IsIgnoredForTest exposes the ignore rule.
func IsIgnoredForTest(s string) bool { return isIgnored(s) }
