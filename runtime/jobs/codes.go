package jobs

import (
	"errors"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// categoryCodes is the failure half of the mapping table in doc.go: a
// failed run's receipt category to the seed's code.
var categoryCodes = map[receipt.Category]Code{
	receipt.CategoryBrowserUnavailable:  CodeBrowserUnavailable,
	receipt.CategoryBrowserLaunchFailed: CodeBrowserLaunchFailed,
	receipt.CategoryTargetNotAllowed:    CodeTargetNotAllowed,
	receipt.CategoryOriginNotAllowed:    CodeTargetNotAllowed,
	receipt.CategoryFrameNotAllowed:     CodeTargetNotAllowed,
	receipt.CategoryTargetUnreachable:   CodeTargetUnreachable,
	receipt.CategoryUIAssertionFailed:   CodeUIAssertionFailed,
	receipt.CategoryLocatorNotFound:     CodeUIAssertionFailed,
	receipt.CategoryExtractionFailed:    CodeUIAssertionFailed,
	receipt.CategoryDownloadFailed:      CodeUIAssertionFailed,
	receipt.CategoryApprovalRefused:     CodeUIAssertionFailed,
	receipt.CategoryLimitExceeded:       CodeUIAssertionFailed,
	receipt.CategoryEffectUnconfirmed:   CodeUIAssertionFailed,
	receipt.CategoryRunTimeout:          CodeRunTimeout,
	receipt.CategoryBrowserCrashed:      CodeBrowserCrashed,
	receipt.CategoryInternal:            CodeBrowserCrashed,
	receipt.CategoryCanceled:            CodeCancelled,
}

// classify maps one runtime.Execute return onto a job's state and code
// (the table in doc.go). stop is the runner's own interruption of the
// run's context, "" when there was none.
func classify(res *runtime.Result, err error, stop Code) outcome {
	o := outcome{res: res}
	if err != nil {
		o.cause = err.Error()
	}
	switch {
	case stop != "":
		// The runner ended the run: cancel, budget or Close, whatever
		// the runtime made of the cancelled context.
		o.state, o.code = stateOf(stop), stop
		return o
	case res == nil:
		// A refusal before the run (Submit checked the capability and
		// inputs already): a busy driver, or a run folder refused.
		switch {
		case errors.Is(err, runtime.ErrDriverBusy):
			o.code = CodeBrowserUnavailable
		case errors.Is(err, runtime.ErrRunDir):
			o.code = CodeArtifactCapacity
		default:
			o.code = CodeBrowserCrashed
		}
		o.state = StateFailed
		return o
	case errors.Is(err, runtime.ErrEvidence):
		o.state, o.code = StateFailed, CodeArtifactCapacity
		return o
	}
	switch res.State {
	case runtime.StateCompleted, receipt.TerminalBusinessOutcome:
		o.state = StatePassed
	case receipt.TerminalFailed:
		o.state = StateFailed
		o.code = CodeBrowserCrashed
		if res.Failure != nil {
			if c, ok := categoryCodes[res.Failure.Category]; ok {
				o.code = c
			}
		}
		if o.code == CodeCancelled {
			o.state = StateCancelled
		}
	default:
		// stopped_at_gate, blocked_by_unknown_modal, native_gap,
		// recovery_requested: the run did not get the answer; the UI
		// did not let the capability through unattended.
		o.state, o.code = StateFailed, CodeUIAssertionFailed
	}
	return o
}

// sourceCode maps a driver source's error onto a code.
func sourceCode(err error) Code {
	switch {
	case errors.Is(err, runtime.ErrBrowserLaunchFailed):
		return CodeBrowserLaunchFailed
	case errors.Is(err, runtime.ErrBrowserCrashed):
		return CodeBrowserCrashed
	}
	return CodeBrowserUnavailable
}
