// Package vera is the root of Vera, an embeddable Go library for portable
// browser capabilities: typed, reviewable JSON instruction packages for one
// business process on one site, replayed deterministically in real Chromium
// through go-rod, with hash-linked evidence of every run, promotion to
// validated_local after two clean runs, and hash-locked bundles anyone can
// verify offline.
//
// This package holds no code. The packages, in the order data flows:
//
//   - [github.com/vera-run/vera/discovery]: read-only observation of an
//     operator's process with redaction, the developer pack, promotion of a
//     reviewed draft.
//   - [github.com/vera-run/vera/capability]: the browser-capability/v1 model,
//     strict parsing, validation, the execution hash, the JSON Schema.
//   - [github.com/vera-run/vera/capability/convert]: importing flows people
//     already have (seed 004 capability artifacts, Chrome DevTools Recorder
//     recordings) as reviewable drafts, with a report of every field.
//   - [github.com/vera-run/vera/locator]: locator candidates, their order and
//     safety rules, resolution (first uniquely matching candidate wins).
//   - [github.com/vera-run/vera/runtime]: Execute, the Driver seam, options,
//     Result, Preflight.
//   - [github.com/vera-run/vera/runtime/browser]: the go-rod Driver (Launch a
//     provider-owned Chromium, Connect to an existing Chrome).
//   - [github.com/vera-run/vera/runtime/provider]: the computer-use
//     provider boundary (seed 001): runtime profile, bounded action request
//     with effect class and gate binding, facts-only receipt and its
//     validator, idempotency stores.
//     provider-owned Chromium, Connect to an existing Chrome), and Browser,
//     one browser handing out a driver per concurrent run.
//   - [github.com/vera-run/vera/runtime/grant]: authorization of browser
//     automation (seed 002): the administrator's ceiling (in code or from
//     VERA_BROWSER_* variables) and the grant that commits one run's
//     browser target, origins, environment names, network class and
//     execution hash.
//   - [github.com/vera-run/vera/runtime/jobs]: a bounded job runner (slots,
//     queue, run budget, retention, expiry, restart-safe records) over a
//     driver source.
//   - [github.com/vera-run/vera/runtime/runtimetest]: the fake Driver over
//     declarative fixtures and the TestDriver conformance suite.
//   - [github.com/vera-run/vera/runtime/tool]: a capability as an agent
//     tool (JSON Schemas, annotations, a bounded handler), and
//     [github.com/vera-run/vera/runtime/tool/mcpserver], verified bundles
//     served as MCP tools.
//   - [github.com/vera-run/vera/download]: attributing one browser download
//     and verifying its bytes.
//   - [github.com/vera-run/vera/receipt]: run evidence (outputs, receipt v3,
//     run lock, recovery proposals), VerifyRun, Finalize, Compare.
//   - [github.com/vera-run/vera/bundle]: Seal and Verify hash-locked bundles,
//     CheckPath.
//
// Internal plumbing: internal/canonjson (RFC 8785), internal/safefs
// (owner-only atomic files through os.Root), internal/redact (identifier and
// secret detectors) and internal/testsite (synthetic web apps on loopback).
package vera
