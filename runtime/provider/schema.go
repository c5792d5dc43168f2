package provider

import (
	"bytes"
	_ "embed"
)

var (
	//go:embed schema/profile.schema.json
	profileSchema []byte
	//go:embed schema/request.schema.json
	requestSchema []byte
	//go:embed schema/receipt.schema.json
	receiptSchema []byte
)

// ProfileSchema returns the JSON Schema (draft 2020-12) of
// computer_use_runtime_profile_v0. The returned slice is a copy.
func ProfileSchema() []byte { return bytes.Clone(profileSchema) }

// RequestSchema returns the JSON Schema (draft 2020-12) of
// computer_use_action_request_v0: the shape, including the rule that an
// external_write or credential_use request carries an open gate binding.
// [ActionRequest.Check] and the gate source are authoritative for the
// rest (the capability binding, the current revision). The returned slice
// is a copy.
func RequestSchema() []byte { return bytes.Clone(requestSchema) }

// ReceiptSchema returns the JSON Schema (draft 2020-12) of
// computer_use_receipt_v0: the shape any provider's receipt must have.
// The content rules (writeback-shaped members, raw bytes, secrets, page
// bodies), identity, gate and idempotency are enforced only by
// [ValidateReceipt], which is authoritative. The returned slice is a copy.
func ReceiptSchema() []byte { return bytes.Clone(receiptSchema) }
