package safefs

// SetTestHookAfterStep installs hook for the duration of a test and returns a
// function restoring the previous hook.
func SetTestHookAfterStep(hook func(step WriteStep) error) (restore func()) {
	prev := testHookAfterStep
	testHookAfterStep = hook
	return func() { testHookAfterStep = prev }
}

// TempName exposes tempName to the external tests.
var TempName = tempName
