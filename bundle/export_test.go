package bundle

// SetSealHook installs a hook called after Seal has written every file of
// the sibling directory and before it verifies and renames it; the hook's
// error aborts Seal as a crash at that point would, except that Seal
// cleans up. It returns a function restoring the previous hook.
func SetSealHook(hook func() error) (restore func()) {
	prev := sealHook
	sealHook = func(sealStep) error { return hook() }
	return func() { sealHook = prev }
}

// FoldKey exposes foldKey to the external tests.
var FoldKey = foldKey
