// Package runrule holds the rules of a run's files that both the writer
// (internal/runwrite, used by the runtime) and the verifier (package
// receipt) apply, so each exists once: the run id alphabet and the output
// count. It depends on nothing of the module.
package runrule

// MaxRunIDLen bounds a run id, in bytes (receipt.MaxRunIDLen).
const MaxRunIDLen = 128

// ValidRunID reports whether s is a run id: 1 to [MaxRunIDLen] bytes of
// A-Z a-z 0-9 . _ -.
func ValidRunID(s string) bool {
	if s == "" || len(s) > MaxRunIDLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// OutputCount is the receipt count of one output (outputs[].count): the
// number of files of a download set, of records of a record set, and 1
// or 0 for a produced or missing text or record.
func OutputCount(kind string, produced bool, value any, files int) int {
	switch kind {
	case "download_set":
		return files
	case "record_set":
		if xs, ok := value.([]any); ok {
			return len(xs)
		}
		if xs, ok := value.([]map[string]any); ok {
			return len(xs)
		}
		return 0
	}
	if produced {
		return 1
	}
	return 0
}
