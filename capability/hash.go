package capability

import (
	"bytes"
	"encoding/json"

	"github.com/vera-run/vera/internal/canonjson"
)

// ExecutionHash is the sha256 digest ("sha256:<hex>") of the RFC 8785
// canonical JSON of the capability with the top-level "state" and
// "validation" members removed. Promotion from discovered to
// validated_local therefore leaves it unchanged, while any change to the
// executable contract (a locator, an origin, a frame path, a timeout)
// changes it.
func (c *Capability) ExecutionHash() (string, error) {
	m, err := c.executionObject()
	if err != nil {
		return "", err
	}
	return canonjson.Digest(m)
}

// ExecutionBytes returns the canonical bytes ExecutionHash digests.
func (c *Capability) ExecutionBytes() ([]byte, error) {
	m, err := c.executionObject()
	if err != nil {
		return nil, err
	}
	return canonjson.Marshal(m)
}

func (c *Capability) executionObject() (map[string]any, error) {
	raw, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, err
	}
	delete(m, "state")
	delete(m, "validation")
	return m, nil
}
