package bundle

import "encoding/json"

// SchemaReport is the schema of a [Report] rendered as JSON.
const SchemaReport = "browser-bundle-verification/v1"

// MarshalJSON renders the report as a versioned document: the schema
// [SchemaReport], "ok" (whether [Report.Err] is nil), every field of the
// report (empty lists as []) and the claim error as text. The parsed
// capability is not included; the lock is.
func (r *Report) MarshalJSON() ([]byte, error) {
	type plain Report
	p := plain(*r)
	for _, s := range []*[]string{&p.Valid, &p.Unlisted, &p.Missing, &p.Capability} {
		if *s == nil {
			*s = []string{}
		}
	}
	for _, s := range []*[]FileProblem{&p.Mismatched, &p.Unsafe, &p.Forbidden, &p.LockProblems, &p.Limits} {
		if *s == nil {
			*s = []FileProblem{}
		}
	}
	var claim string
	if r.Claim != nil {
		claim = r.Claim.Error()
	}
	return json.Marshal(struct {
		Schema string `json:"schema"`
		OK     bool   `json:"ok"`
		plain
		ClaimError string `json:"claim,omitempty"`
	}{SchemaReport, r.Err() == nil, p, claim})
}
