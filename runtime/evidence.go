package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"time"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/internal/canonjson"
	"github.com/vera-run/vera/internal/runwrite"
	"github.com/vera-run/vera/receipt"
)

// exposedOutputs splits the produced outputs by exposure.
func (r *run) exposedOutputs() (model map[string]any, artifact map[string]int) {
	model, artifact = map[string]any{}, map[string]int{}
	for i := range r.cap.Outputs {
		d := &r.cap.Outputs[i]
		o := r.outs[d.Name]
		if !o.produced {
			continue
		}
		ov := r.outputValue(o)
		count := runwrite.OutputCount(&ov)
		if d.Kind == capability.OutputDownloadSet || d.Exposure == capability.ExposureArtifactOnly || (d.Exposure != capability.ExposureModelAndArtifact && d.Exposure != capability.ExposureModelSummary) {
			artifact[d.Name] = count
			continue
		}
		if d.Exposure == capability.ExposureModelAndArtifact || d.Kind == capability.OutputText {
			model[d.Name] = ov.Value
			continue
		}
		fields := make([]string, len(d.Fields))
		for j, f := range d.Fields {
			fields[j] = f.Name
		}
		model[d.Name] = OutputSummary{Kind: string(d.Kind), Count: count, Fields: fields}
	}
	return model, artifact
}

// outputValue is the outputs.json entry of one output.
func (r *run) outputValue(o *outState) receipt.OutputValue {
	d := o.decl
	ov := receipt.OutputValue{Name: d.Name, Kind: string(d.Kind), Exposure: string(d.Exposure), Produced: o.produced}
	if !o.produced {
		return ov
	}
	switch d.Kind {
	case capability.OutputText:
		ov.Value = r.secrets.scrub(o.text)
	case capability.OutputRecord:
		ov.Value = r.secrets.scrubValue(o.record)
	case capability.OutputRecordSet:
		recs := o.records
		if recs == nil {
			recs = []any{}
		}
		ov.Value = r.secrets.scrubValue(recs)
	case capability.OutputDownloadSet:
		ov.Files = make([]receipt.DownloadFile, len(o.files))
		for i, f := range o.files {
			ov.Files[i] = receipt.DownloadFile{Path: f.Path, Bytes: f.Size, SHA256: f.SHA256}
		}
	}
	return ov
}

// writeEvidence builds the receipt, outputs and proposals and writes them
// into the run directory reserved before the run ([reserveRunDir]).
func (r *run) writeEvidence(res *Result, term *stop) (string, string, error) {
	rc := &receipt.Receipt{
		Schema: receipt.SchemaReceipt,
		RunID:  r.runID,
		Capability: receipt.CapabilityRef{
			ID: r.cap.ID, Version: r.cap.Version, ExecutionHash: r.execHash,
		},
		ExecutionMode: r.info.Mode,
		StartedAt:     res.Started.UTC().Format(time.RFC3339Nano),
		FinishedAt:    res.Finished.UTC().Format(time.RFC3339Nano),
		DurationMS:    res.Finished.Sub(res.Started).Milliseconds(),
		Milestones:    nonNil(r.milestones),
		Actions:       nonNil(r.records),
		Terminal: receipt.Terminal{
			State: term.state, Outcome: term.outcome, Failure: term.failure, Action: term.action,
		},
		Environment: receipt.Environment{
			Browser:         r.info.Browser,
			ProtocolVersion: r.info.ProtocolVersion,
			Library:         "vera/" + Version,
			GoVersion:       goruntime.Version(),
			OS:              goruntime.GOOS,
			Arch:            goruntime.GOARCH,
		},
		Grant:                   grantRecord(r.grant),
		Origins:                 nonNil(res.Origins),
		BlockedRequests:         r.blocked,
		LocatorChangesDuringRun: res.LocatorChangesDuringRun,
		Recovered:               res.Recovered,
		HandedOff:               res.HandedOff,
		Clean:                   res.Clean,
	}
	if p := r.cap.Provenance; p != nil {
		rc.Capability.DiscoveryHash = p.DiscoveryHash
	}
	var errs []error
	rc.Inputs = make([]receipt.InputRecord, 0, len(r.cap.Inputs))
	for i := range r.cap.Inputs {
		in := &r.cap.Inputs[i]
		v, ok := r.vals[in.Name]
		rec := receipt.InputRecord{Name: in.Name, Present: ok && v.supplied, Secret: in.Secret}
		if rec.Present && !in.Secret {
			h, err := receipt.HashInput(r.execHash, in.Name, v.typed)
			errs = append(errs, err)
			rec.Hash = h
		}
		rc.Inputs = append(rc.Inputs, rec)
	}
	outs := &receipt.Outputs{Schema: receipt.SchemaOutputs, RunID: r.runID, Outputs: make([]receipt.OutputValue, 0, len(r.cap.Outputs))}
	rc.Outputs = make([]receipt.OutputRecord, 0, len(r.cap.Outputs))
	for i := range r.cap.Outputs {
		ov := r.outputValue(r.outs[r.cap.Outputs[i].Name])
		h, err := receipt.OutputHash(&ov)
		errs = append(errs, err)
		outs.Outputs = append(outs.Outputs, ov)
		rc.Outputs = append(rc.Outputs, receipt.OutputRecord{
			Name: ov.Name, Kind: ov.Kind, Exposure: ov.Exposure, Count: runwrite.OutputCount(&ov), Hash: h,
		})
	}
	run := &runwrite.Run{Receipt: rc, Outputs: outs, Capture: r.captureFinish()}
	if p := r.proposal; p != nil {
		a, _, _, _ := r.cap.Action(p.Target.ActionID)
		ch, err := canonjson.Digest(a)
		errs = append(errs, err)
		prop := receipt.Proposal{
			Target:                p.Target,
			UseResolvedActionRoot: p.UseResolvedActionRoot,
			Rationale:             p.Rationale,
			Uncertainty:           p.Uncertainty,
			ContractHash:          ch,
			FailureHash:           p.FailureHash,
			Outcome:               r.proposalOutcome,
		}
		if p.Locator != nil {
			prop.Locator = *p.Locator
		}
		run.Proposals = &receipt.Proposals{Schema: receipt.SchemaProposals, RunID: r.runID, Proposals: []receipt.Proposal{prop}}
	}
	if err := errors.Join(errs...); err != nil {
		return r.dropEmptyRunDir(), "", err
	}
	h, err := runwrite.WriteReserved(r.runDir, run)
	if err != nil {
		return r.dropEmptyRunDir(), "", err
	}
	return r.runDir, h, nil
}

// reserveRunDir checks the run folder and reserves the run directory,
// before the first driver call: a refusal wraps [ErrRunDir] and the
// [*receipt.RunDirError] naming the check, and leaves nothing behind. The
// directory is named after the run id, so a folder and its receipt's
// run_id never disagree.
func reserveRunDir(cfg *config, runID string) (string, error) {
	parent := cfg.runDir
	if parent == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", fmt.Errorf("%w: no default run folder: %w", ErrRunDir,
				&receipt.RunDirError{Check: receipt.RunDirLocation, Detail: "no user cache directory", Err: err})
		}
		parent = filepath.Join(cache, "vera", "runs")
	}
	wopts := []runwrite.Option{runwrite.WithRunDirName(runID)}
	if cfg.allowGit {
		wopts = append(wopts, runwrite.WithAllowGitWorkTree())
	}
	dir, err := runwrite.ReserveRunDir(parent, wopts...)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrRunDir, err)
	}
	return dir, nil
}

// dropEmptyRunDir removes the reserved run directory when nothing was
// written into it and returns what is left: the directory of an
// incomplete run, or "".
func (r *run) dropEmptyRunDir() string {
	fi, err := os.Lstat(r.runDir)
	if err != nil || !fi.IsDir() {
		// Gone or replaced by something that is not ours.
		return ""
	}
	if os.Remove(r.runDir) == nil { // fails unless empty
		return ""
	}
	return r.runDir
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
