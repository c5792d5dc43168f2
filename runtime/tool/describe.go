package tool

import (
	"encoding/json"
	"fmt"

	"github.com/vera-run/vera/capability"
	"github.com/vera-run/vera/runtime"
)

// SchemaDialect is the JSON Schema dialect of every schema this package
// writes.
const SchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// Description is a capability described as an agent tool, in the shape
// every tool-calling framework shares (MCP, function calling): a name, a
// description, a JSON Schema for the arguments and one for the structured
// result, and behaviour hints.
type Description struct {
	// Name is the capability id (letters, digits, '.', '-' and '_': a
	// valid MCP tool name).
	Name string `json:"name"`
	// Title is the capability's human-readable name.
	Title string `json:"title"`
	// Description is the capability's goal, followed by the business
	// outcomes it can answer with and, for a consequential capability, a
	// note that a person approves each consequential action.
	Description string `json:"description"`
	// InputSchema is the JSON Schema (draft 2020-12) of the arguments: one
	// property per declared input; secret inputs are writeOnly.
	InputSchema map[string]any `json:"inputSchema"`
	// OutputSchema is the JSON Schema (draft 2020-12) of [Result]: its
	// outputs member lists the model-visible outputs only.
	OutputSchema map[string]any `json:"outputSchema"`
	// Annotations are the behaviour hints derived from the effects.
	Annotations Annotations `json:"annotations"`
}

// Annotations are a tool's behaviour hints, derived from the highest
// effect of the capability's actions (not the authority ceiling, which
// may be higher than what the process does).
type Annotations struct {
	// Effect is the highest action effect: read_only, reversible or
	// consequential.
	Effect capability.Effect `json:"effect"`
	// ReadOnly: every action is read_only.
	ReadOnly bool `json:"readOnly"`
	// Destructive: some action is consequential (its effect cannot be
	// undone by the capability); each asks for approval at action time.
	Destructive bool `json:"destructive"`
	// Consequential equals Destructive, under the capability's own word.
	Consequential bool `json:"consequential"`
	// Idempotent: a read-only capability can be called again with the
	// same arguments to no further effect.
	Idempotent bool `json:"idempotent"`
	// OpenWorld is always true: the tool reaches a web site.
	OpenWorld bool `json:"openWorld"`
}

// Describe describes c as a tool. It needs a capability that parses and
// has valid inputs and outputs; it does not check executability (see
// [New]).
func Describe(c *capability.Capability) (*Description, error) {
	if c == nil {
		return nil, fmt.Errorf("%w: nil capability", ErrInvalidCapability)
	}
	if c.ID == "" {
		return nil, fmt.Errorf("%w: no id", ErrInvalidCapability)
	}
	in, err := InputSchema(c)
	if err != nil {
		return nil, err
	}
	ann := annotations(c)
	desc := c.Goal
	if len(c.BusinessOutcomes) > 0 {
		desc += "\n\nIt may end with a business outcome instead of outputs:"
		for _, o := range c.BusinessOutcomes {
			desc += "\n- " + o.Code
			if o.Description != "" {
				desc += ": " + o.Description
			}
		}
	}
	if ann.Consequential {
		desc += "\n\nEach consequential action is approved by a person at action time; without an approval the call stops at the gate and says what to approve."
	}
	return &Description{
		Name:         c.ID,
		Title:        c.Name,
		Description:  desc,
		InputSchema:  in,
		OutputSchema: OutputSchema(c),
		Annotations:  ann,
	}, nil
}

func annotations(c *capability.Capability) Annotations {
	rank := map[capability.Effect]int{capability.EffectReadOnly: 0, capability.EffectReversible: 1, capability.EffectConsequential: 2}
	top := capability.EffectReadOnly
	for _, m := range c.Milestones {
		for _, a := range m.Actions {
			if rank[a.Effect] > rank[top] {
				top = a.Effect
			}
		}
	}
	return Annotations{
		Effect:        top,
		ReadOnly:      top == capability.EffectReadOnly,
		Destructive:   top == capability.EffectConsequential,
		Consequential: top == capability.EffectConsequential,
		Idempotent:    top == capability.EffectReadOnly,
		OpenWorld:     true,
	}
}

// InputSchema is the JSON Schema (draft 2020-12) of c's arguments: an
// object with one property per input (string, integer, number, boolean;
// date as a string of format date; enum as a string enum), its
// description, bounds (maxLength, minimum, maximum) and default,
// "required" for required inputs without a default, no additional
// properties. A secret input is writeOnly and never carries a default;
// an input with a secret_ref is not listed at all (the runtime reads it
// from the environment and refuses it from a caller).
func InputSchema(c *capability.Capability) (map[string]any, error) {
	props := map[string]any{}
	required := []string{}
	for _, in := range c.Inputs {
		if in.SecretRef != "" {
			// Its value comes from a declared secret in the host's
			// environment; a caller never supplies it (FORMAT 3.2.4).
			continue
		}
		p := map[string]any{}
		switch in.Type {
		case capability.InputString:
			p["type"] = "string"
			if in.MaxLength > 0 {
				p["maxLength"] = in.MaxLength
			}
		case capability.InputInteger, capability.InputNumber:
			p["type"] = string(in.Type)
			if in.Minimum != nil {
				p["minimum"] = *in.Minimum
			}
			if in.Maximum != nil {
				p["maximum"] = *in.Maximum
			}
		case capability.InputBoolean:
			p["type"] = "boolean"
		case capability.InputDate:
			p["type"] = "string"
			p["format"] = "date"
			p["pattern"] = `^[0-9]{4}-[0-9]{2}-[0-9]{2}$`
		case capability.InputEnum:
			p["type"] = "string"
			vals := make([]any, len(in.Values))
			for i, v := range in.Values {
				vals[i] = v
			}
			p["enum"] = vals
		default:
			return nil, fmt.Errorf("%w: input %q has unknown type %q", ErrInvalidCapability, in.Name, in.Type)
		}
		if in.Description != "" {
			p["description"] = in.Description
		}
		if in.Secret {
			p["writeOnly"] = true
		} else if len(in.Default) > 0 {
			var d any
			if err := json.Unmarshal(in.Default, &d); err != nil {
				return nil, fmt.Errorf("%w: input %q default: %v", ErrInvalidCapability, in.Name, err)
			}
			p["default"] = d
		}
		if in.Required && len(in.Default) == 0 {
			required = append(required, in.Name)
		}
		props[in.Name] = p
	}
	return map[string]any{
		"$schema":              SchemaDialect,
		"type":                 "object",
		"properties":           props,
		"required":             required,
		"additionalProperties": false,
	}, nil
}

// OutputSchema is the JSON Schema (draft 2020-12) of a [Result] of c. Its
// outputs member has one property per model-visible output: a
// model_and_artifact output as its value (text a string, record an object
// of its fields, record_set an array of them), a model_summary record or
// record set as a runtime.OutputSummary, a model_summary text as the text.
// artifact_only outputs and download sets never appear there; artifacts
// names them with counts only.
func OutputSchema(c *capability.Capability) map[string]any {
	outs := map[string]any{}
	artifacts := map[string]any{}
	for _, o := range c.Outputs {
		if !modelVisible(o) {
			artifacts[o.Name] = map[string]any{"type": "integer", "minimum": 0}
			continue
		}
		var s map[string]any
		switch {
		case o.Kind == capability.OutputText:
			s = map[string]any{"type": "string"}
		case o.Exposure == capability.ExposureModelSummary:
			s = summarySchema(o)
		case o.Kind == capability.OutputRecord:
			s = recordSchema(o)
		default: // record_set
			s = map[string]any{"type": "array", "items": recordSchema(o)}
		}
		if o.Description != "" {
			s["description"] = o.Description
		}
		outs[o.Name] = s
	}
	states := []any{}
	for _, s := range []runtime.TerminalState{runtime.StateCompleted, runtime.StateBusinessOutcome, runtime.StateStoppedAtGate,
		runtime.StateBlockedByUnknownModal, runtime.StateNativeGap, runtime.StateRecoveryRequested, runtime.StateFailed} {
		states = append(states, string(s))
	}
	codes := []any{}
	for _, o := range c.BusinessOutcomes {
		codes = append(codes, o.Code)
	}
	str := map[string]any{"type": "string"}
	outcome := map[string]any{"type": "object", "required": []string{"code"}, "properties": map[string]any{
		"code": map[string]any{"type": "string", "enum": codes}, "description": str}}
	decision := map[string]any{"type": "object", "required": []string{"action_id", "milestone", "intent", "effect", "reason"},
		"properties": map[string]any{
			"capability_id": str, "version": str, "execution_hash": str,
			"milestone": str, "action_id": str, "operation": str, "intent": str, "effect": str,
			"reason": str,
		}}
	failure := map[string]any{"type": "object", "required": []string{"category"}, "properties": map[string]any{
		"category": str, "reason": str, "detail_hash": str}}
	return map[string]any{
		"$schema":  SchemaDialect,
		"type":     "object",
		"required": []string{"status", "run_id"},
		"properties": map[string]any{
			"status":            map[string]any{"type": "string", "enum": states},
			"run_id":            str,
			"capability_id":     str,
			"version":           str,
			"outputs":           map[string]any{"type": "object", "properties": outs, "additionalProperties": false},
			"artifacts":         map[string]any{"type": "object", "properties": artifacts, "additionalProperties": false},
			"outcome":           outcome,
			"decision":          decision,
			"failure":           failure,
			"stopped_at":        str,
			"native_gap":        str,
			"clean":             map[string]any{"type": "boolean"},
			"effect_dispatched": map[string]any{"type": "boolean"},
			"unconfirmed":       map[string]any{"type": "boolean"},
			"receipt_hash":      str,
		},
	}
}

// modelVisible mirrors runtime's exposure rule: artifact_only outputs and
// download sets never reach a model.
func modelVisible(o capability.Output) bool {
	if o.Kind == capability.OutputDownloadSet {
		return false
	}
	return o.Exposure == capability.ExposureModelAndArtifact || o.Exposure == capability.ExposureModelSummary
}

func recordSchema(o capability.Output) map[string]any {
	props := map[string]any{}
	for _, f := range o.Fields {
		switch f.Type {
		case capability.FieldDate:
			props[f.Name] = map[string]any{"type": "string", "format": "date"}
		default:
			props[f.Name] = map[string]any{"type": string(f.Type)}
		}
	}
	return map[string]any{"type": "object", "properties": props}
}

func summarySchema(o capability.Output) map[string]any {
	return map[string]any{"type": "object", "required": []string{"kind", "count"}, "properties": map[string]any{
		"kind":   map[string]any{"type": "string", "const": string(o.Kind)},
		"count":  map[string]any{"type": "integer", "minimum": 0},
		"fields": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	}}
}
