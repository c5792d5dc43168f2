// Package tool offers a capability as an agent tool, framework-neutral:
// [Describe] turns a capability into a [Description] (name, description,
// input and output JSON Schemas, behaviour hints) and [Tool.Call] runs it
// through runtime.Execute and returns a structured [Result]. Package
// mcpserver builds an MCP server on it.
//
// # Decisions
//
//   - The name is the capability id, the title its name, the description
//     its goal plus the business outcome codes (a model should know a
//     "member_not_found" is an answer, not a failure).
//   - Inputs: JSON Schema draft 2020-12, one property per input, no
//     additional properties; a secret input is writeOnly and never shows a
//     default; date inputs are strings of format date. Required inputs with
//     a default are not listed as required (the runtime applies the
//     default).
//   - Outputs: the result schema lists model-visible outputs only, by the
//     runtime's own exposure rule; artifact_only outputs and download sets
//     are named with a count under artifacts, their values never leave the
//     run's outputs.json.
//   - Annotations come from the highest effect of the actions: read_only
//     is read-only and idempotent, consequential is destructive. The
//     authority ceiling is not used: it may be higher than what the process
//     does.
//   - A result carries the terminal state as status; the outcome code and
//     description for a business outcome; for stopped_at_gate the exact
//     [Decision] (capability, execution hash, milestone, action, intent,
//     effect, reason); the runtime's sanitized failure otherwise. It never
//     carries an argument value or a local path (the run folder stays with
//     the host).
//   - Nothing is approved automatically: without [WithApprover] a
//     consequential action ends the run stopped_at_gate (no_approver).
//   - Concurrency: every call runs through a [Runner]. The default is a
//     [Semaphore] of [DefaultMaxConcurrent] slots per tool; a host with a
//     job runner (runtime/jobs, when it exists) passes it with
//     [WithRunner], and tools sharing one Semaphore are bounded together.
//     The call's whole run (driver open, approvals included) holds a slot.
//   - Each call opens its own driver through [DriverFunc] and closes it:
//     runs never share a page.
package tool
