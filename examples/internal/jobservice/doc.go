// Package jobservice is the job service of examples/jobserver: seed 003's
// browser job contract v1 as an HTTP protocol (FORMAT.md §17) over a
// [jobs.Runner]. examples/jobserver is its small main; examples/jobclient
// speaks the protocol with this package's wire types.
//
// # Routes
//
//	GET    /healthz                         liveness only (no protocol header needed)
//	GET    /v1/preflight                    the browser probe (runtime.Preflight), versions, limits
//	GET    /v1/trial                        the trial submission (WithTrial), sent as is
//	POST   /v1/runs                         202: run id, secret run token, expiry
//	GET    /v1/runs/{id}[?wait_ms=&after=]  the run's status or terminal receipt (token)
//	DELETE /v1/runs/{id}                    idempotent cancellation (token)
//	GET    /v1/runs/{id}/artifacts/{name}   a terminal run's retained file (token)
//
// # Decisions
//
//   - Protocol first: every /v1 route checks X-Vera-Protocol: 1 before
//     anything else (409 protocol_mismatch, a missing header included),
//     so no token is looked at and no run starts for a client of another
//     protocol; a body whose api_version is not "1" is 409 too, before it
//     is looked at further.
//   - Tokens: 32 random bytes, base64url, prefixed vrt_. Only their
//     SHA-256 is kept (tokens.json in the state folder, 0600, replaced
//     atomically on every change and before the 202 is sent). A presented
//     token is hashed and compared in constant time with the stored hash,
//     or with a fixed dummy hash when the id is unknown, so a miss costs
//     what a hit costs. Wrong, missing, unknown and expired all answer the
//     same 404 bytes (notFoundBody), and so does any unrouted path.
//   - Expiry is the runner's (one hour after acceptance); a run past it is
//     404 at once, before the janitor's next sweep removes it. Tokens of
//     runs the runner no longer has are dropped at start.
//   - The body is read through a limit of MaxBodyBytes+1 bytes (and a
//     larger Content-Length is refused unread): more is 413. The runner's
//     own 32 KiB check on the capability, inputs and label is 413 too.
//   - A request names a bundle folder directly under the service's bundle
//     folder (one path element, no dot-dot), verified with bundle.Verify
//     on every submission (a bundle changed since the start is caught); a
//     bundle that does not verify is 422 bundle_invalid with the
//     verifier's problems, never a run. An inline capability is parsed
//     strictly; its refusals (and the runner's: validation, inputs, steps)
//     are 400 invalid_request with the problems.
//   - Refusals: queue_full and artifact_capacity are 429 with Retry-After:
//     1; browser_unavailable (the runner's availability check) and
//     service_stopped are 503.
//   - Progress: the runner's hooks bump a per-run revision and keep the
//     last step report; the status document carries both. A status
//     request with wait_ms (at most 30 s) and after=<revision> is answered
//     at the next change (or at once when the current revision is not
//     the one named, or the run is terminal), so a client follows
//     progress without a polling interval. Revisions live in memory:
//     after a restart they start again from 1, and a client's stale
//     revision is answered at once.
//   - Artifacts: only names the run's record lists are served (no path
//     is built from the request), through an os.Root on the run folder,
//     and only when the file still has its recorded size; the status
//     document lists them. A run that is not terminal is 409
//     run_not_terminal.
//   - Viewports: a submission's viewports go to jobs.Request.Viewports
//     and are checked by the runner's rules (jobs.ViewportError) before
//     admission; a refusal is 422 with the rule's code (bad_width, ...,
//     viewports_unsupported for a service without WithViewportSource),
//     never a second copy of the rules here. Each viewport's result
//     (state, code, answer, run id, receipt digest, screenshot name and
//     size) is in the run document; the screenshots are artifacts of
//     the run like its receipts, served by the artifact route with the
//     token. The runner records the viewports' results when the job
//     ends; while it runs, progress.viewport names the one running.
//   - Receipt fields of the seed: the run document names the endpoint
//     the run ran on and, once it ended, the environment its receipt
//     declares (browser and CDP versions, Vera's library version, Go,
//     OS, architecture), read from the retained receipt and only while
//     it still hashes to receipt_hash (cached per run: a terminal
//     receipt does not change). Left out on purpose: the Playwright
//     version (Vera runs none; its driver is part of the library whose
//     version the receipt names), a release of the serving process (a
//     run is described by the receipt it wrote, not by whichever
//     service answers later), an execution location beyond the
//     endpoint's name and the execution mode (Vera knows no more than
//     the operator named), and a target URL (the capability declares
//     its start; capability_id and capability_version name it and the
//     receipt lists the origins reached).
//   - Trial (WithTrial): seed 003's consumer-independent scenario. The
//     service serves its own fixture on a loopback port (not on the
//     service's listener: the browser must reach it as a web origin of
//     its own, and the service's listener may be behind a tunnel), and
//     GET /v1/trial answers a complete submission against it (inline
//     capability, two viewports), so a client needs nothing but the
//     service to check it end to end. Only a browser on the service's
//     host reaches the fixture: jobserver offers the trial only when it
//     launches its browser.
//   - Preflight: one probe at a time, reused for PreflightInterval (one
//     minute) unless a run ended with a browser code (browser_crashed,
//     browser_unavailable, browser_launch_failed) since: then the next
//     preflight probes again, so it does not report a browser that died
//     as available for up to a minute. A failing probe is 503 with the
//     report.
//   - Pool (WithEndpoints): the service runs over the runner's pool of
//     browser endpoints instead of one driver source (exactly one of
//     the two, else ErrDriverSource; the single source's
//     WithActiveBrowsers, WithViewportSource and WithAvailability are
//     refused with a pool, whose endpoints' slots, OpenViewport and
//     health decide). Admission, placement, health checks and failover
//     are the runner's (jobs.WithEndpoints). The preflight probes every
//     endpoint at once (runtime.Preflight over its Open; one the runner
//     found gone is not probed) under the same reuse rule, and is
//     available while one endpoint passed its probe and is neither
//     unhealthy nor gone for the runner now; its endpoints member lists
//     each by name (never by address: a URL may hold a credential) with
//     slots, busy, available and the browser version, and its report is
//     the first available endpoint's. Old clients ignore the member.
//   - Restart-safe: the runner's state folder is runs/ inside the
//     service's, so a new service on the same folder finds terminal runs
//     (readable with their tokens) and turns in-flight ones interrupted
//     with service_restarted. A crash between the runner's record and the
//     token file leaves a job nobody can reach; it runs or waits and
//     expires like any other.
package jobservice
