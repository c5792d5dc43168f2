package docs

import (
	"reflect"
	"strings"

	"github.com/vera-run/vera/bundle"
	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/discovery"
	"github.com/vera-run/vera/locator"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime/grant"
	"github.com/vera-run/vera/runtime/provider"
)

// documentedType is a Go type whose JSON members FORMAT.md documents in a
// table marked <!-- fields NAME -->.
type documentedType struct {
	name string
	typ  reflect.Type
}

func typeOf[T any]() reflect.Type { return reflect.TypeFor[T]() }

// documentedTypes lists every type of every document FORMAT.md covers.
func documentedTypes() []documentedType {
	return []documentedType{
		{"capability.Capability", typeOf[capability.Capability]()},
		{"capability.Provenance", typeOf[capability.Provenance]()},
		{"capability.Review", typeOf[capability.Review]()},
		{"capability.Site", typeOf[capability.Site]()},
		{"capability.Runtime", typeOf[capability.Runtime]()},
		{"capability.Authority", typeOf[capability.Authority]()},
		{"capability.Privacy", typeOf[capability.Privacy]()},
		{"capability.Input", typeOf[capability.Input]()},
		{"capability.Output", typeOf[capability.Output]()},
		{"capability.OutputField", typeOf[capability.OutputField]()},
		{"capability.Expectation", typeOf[capability.Expectation]()},
		{"capability.Milestone", typeOf[capability.Milestone]()},
		{"capability.Transition", typeOf[capability.Transition]()},
		{"capability.Condition", typeOf[capability.Condition]()},
		{"capability.Action", typeOf[capability.Action]()},
		{"capability.QueryEntry", typeOf[capability.QueryEntry]()},
		{"capability.Secret", typeOf[capability.Secret]()},
		{"capability.Seed", typeOf[capability.Seed]()},
		{"capability.SeedCookie", typeOf[capability.SeedCookie]()},
		{"capability.SeedStorage", typeOf[capability.SeedStorage]()},
		{"capability.SeedValue", typeOf[capability.SeedValue]()},
		{"capability.Extraction", typeOf[capability.Extraction]()},
		{"capability.Field", typeOf[capability.Field]()},
		{"capability.BusinessOutcome", typeOf[capability.BusinessOutcome]()},
		{"capability.OutcomeDetect", typeOf[capability.OutcomeDetect]()},
		{"capability.Validation", typeOf[capability.Validation]()},
		{"locator.Candidate", typeOf[locator.Candidate]()},

		{"receipt.Outputs", typeOf[receipt.Outputs]()},
		{"receipt.OutputValue", typeOf[receipt.OutputValue]()},
		{"receipt.DownloadFile", typeOf[receipt.DownloadFile]()},
		{"receipt.Receipt", typeOf[receipt.Receipt]()},
		{"receipt.CapabilityRef", typeOf[receipt.CapabilityRef]()},
		{"receipt.InputRecord", typeOf[receipt.InputRecord]()},
		{"receipt.MilestoneRecord", typeOf[receipt.MilestoneRecord]()},
		{"receipt.ActionRecord", typeOf[receipt.ActionRecord]()},
		{"receipt.Failure", typeOf[receipt.Failure]()},
		{"receipt.DownloadProof", typeOf[receipt.DownloadProof]()},
		{"receipt.ApprovalProof", typeOf[receipt.ApprovalProof]()},
		{"receipt.OutputRecord", typeOf[receipt.OutputRecord]()},
		{"receipt.Terminal", typeOf[receipt.Terminal]()},
		{"receipt.Environment", typeOf[receipt.Environment]()},
		{"receipt.Lock", typeOf[receipt.Lock]()},
		{"receipt.Proposals", typeOf[receipt.Proposals]()},
		{"receipt.Proposal", typeOf[receipt.Proposal]()},
		{"receipt.RecoveryTarget", typeOf[receipt.RecoveryTarget]()},

		{"receipt.Report", typeOf[receipt.Report]()},
		{"receipt.Problem", typeOf[receipt.Problem]()},
		{"bundle.Report", typeOf[bundle.Report]()},
		{"bundle.FileProblem", typeOf[bundle.FileProblem]()},

		{"bundle.Lock", typeOf[bundle.Lock]()},
		{"bundle.LockCapability", typeOf[bundle.LockCapability]()},
		{"bundle.LockFile", typeOf[bundle.LockFile]()},

		{"provider.Profile", typeOf[provider.Profile]()},
		{"provider.Primitives", typeOf[provider.Primitives]()},
		{"provider.Boundary", typeOf[provider.Boundary]()},
		{"provider.RuntimeFacts", typeOf[provider.RuntimeFacts]()},
		{"provider.ActionRequest", typeOf[provider.ActionRequest]()},
		{"provider.WriteScope", typeOf[provider.WriteScope]()},
		{"provider.GateBinding", typeOf[provider.GateBinding]()},
		{"provider.CapabilityRef", typeOf[provider.CapabilityRef]()},
		{"provider.Receipt", typeOf[provider.Receipt]()},
		{"provider.ObservedFacts", typeOf[provider.ObservedFacts]()},
		{"provider.Evidence", typeOf[provider.Evidence]()},

		{"discovery.Evidence", typeOf[discovery.Evidence]()},
		{"discovery.EvidenceLimits", typeOf[discovery.EvidenceLimits]()},
		{"discovery.EvidenceSite", typeOf[discovery.EvidenceSite]()},
		{"discovery.ObservationStep", typeOf[discovery.ObservationStep]()},
		{"discovery.FrameRecord", typeOf[discovery.FrameRecord]()},
		{"discovery.Control", typeOf[discovery.Control]()},
		{"discovery.ControlRef", typeOf[discovery.ControlRef]()},
		{"discovery.ControlState", typeOf[discovery.ControlState]()},
		{"discovery.ControlChange", typeOf[discovery.ControlChange]()},
		{"discovery.StepRecord", typeOf[discovery.StepRecord]()},
		{"discovery.Refusal", typeOf[discovery.Refusal]()},
		{"discovery.RedactionCounts", typeOf[discovery.RedactionCounts]()},
		{"discovery.Record", typeOf[discovery.Record]()},
		{"discovery.RecordSite", typeOf[discovery.RecordSite]()},
		{"discovery.Process", typeOf[discovery.Process]()},
		{"discovery.DiscoveryInfo", typeOf[discovery.DiscoveryInfo]()},
		{"discovery.RecordRuntime", typeOf[discovery.RecordRuntime]()},
		{"discovery.RecordAuthority", typeOf[discovery.RecordAuthority]()},
		{"discovery.RecordPrivacy", typeOf[discovery.RecordPrivacy]()},
		{"discovery.RecordMilestone", typeOf[discovery.RecordMilestone]()},
		{"discovery.RecordReview", typeOf[discovery.RecordReview]()},
		{"discovery.PackLock", typeOf[discovery.PackLock]()},
		{"discovery.LockedFile", typeOf[discovery.LockedFile]()},
		{"discovery.PackDocuments", typeOf[discovery.PackDocuments]()},
		{"discovery.TransferApproval", typeOf[discovery.TransferApproval]()},

		{"receipt.Comparison", typeOf[receipt.Comparison]()},
		{"receipt.RunRef", typeOf[receipt.RunRef]()},
		{"receipt.Policy", typeOf[receipt.Policy]()},
		{"receipt.Rule", typeOf[receipt.Rule]()},
		{"receipt.AlignmentFailure", typeOf[receipt.AlignmentFailure]()},
		{"receipt.StepResult", typeOf[receipt.StepResult]()},
		{"receipt.ArtifactChange", typeOf[receipt.ArtifactChange]()},
		{"receipt.ArtifactState", typeOf[receipt.ArtifactState]()},
		{"receipt.Totals", typeOf[receipt.Totals]()},
		{"receipt.CaptureNormalization", typeOf[receipt.CaptureNormalization]()},
		{"receipt.Capture", typeOf[receipt.Capture]()},
		{"receipt.CaptureContext", typeOf[receipt.CaptureContext]()},
		{"receipt.CapturePolicy", typeOf[receipt.CapturePolicy]()},
		{"receipt.CaptureStep", typeOf[receipt.CaptureStep]()},
		{"receipt.CaptureSection", typeOf[receipt.CaptureSection]()},
		{"receipt.CaptureEvents", typeOf[receipt.CaptureEvents]()},
		{"receipt.CaptureEvent", typeOf[receipt.CaptureEvent]()},
		{"receipt.CaptureTotals", typeOf[receipt.CaptureTotals]()},

		{"grant.Grant", typeOf[grant.Grant]()},
		{"grant.Commitment", typeOf[grant.Commitment]()},
		{"receipt.GrantRecord", typeOf[receipt.GrantRecord]()},
	}
}

// jsonField is one JSON member of a struct type.
type jsonField struct {
	name, goName string
	typ          reflect.Type
	omitempty    bool
}

// jsonFields lists the JSON members of struct type t as encoding/json
// writes them: embedded structs flattened, "-" members skipped.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || !f.IsExported() && !f.Anonymous {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, goName: f.Name, typ: f.Type, omitempty: strings.Contains(","+opts+",", ",omitempty,")})
	}
	return out
}
