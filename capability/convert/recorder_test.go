package convert

import (
	"encoding/json"
	"testing"

	"github.com/vera-run/vera/capability"
)

func TestRecorderMail(t *testing.T) {
	raw := readFile(t, "mail_search.recording.json")
	c, rep, err := FromRecorder(raw)
	if err != nil {
		t.Fatalf("FromRecorder: %v", err)
	}
	out, _ := c.Marshal()
	rj, _ := json.MarshalIndent(rep, "", " ")
	t.Logf("%s\n%s", out, rj)
	assertNothingDropped(t, raw, rep)
	if c.State != capability.StateScaffold {
		t.Errorf("state %s", c.State)
	}
}
