// Package jobs is a bounded job runner for capabilities: a host submits
// a capability with inputs ([Runner.Submit]), the runner admits it
// within its limits or refuses it with a typed error, runs admitted jobs
// in acceptance order on a fixed number of slots, each with a fresh
// driver from its [DriverSource], and keeps every job's record on disk
// until it expires. It follows the browser job contract v1 (seed 003):
// states, limits and error taxonomy; the HTTP service over it is later
// work (examples/jobserver).
//
// Built on golang.org/x/sync: a [semaphore.Weighted] of slots per
// browser endpoint (one endpoint of ActiveBrowsers slots over the
// runner's [DriverSource], or the pool of [WithEndpoints]) and an
// [errgroup.Group] that owns every goroutine of the runner (the
// dispatcher, the janitor, a pool's health checker and endpoint
// watchers, and one per running job), which [Runner.Close] waits for.
// One dispatcher takes a free slot, then the head of the queue, so jobs
// start in acceptance order (goroutines racing for a semaphore would
// not: their Acquire order is the scheduler's, not the queue's).
//
// # States
//
// queued → running → passed | failed | cancelled, and interrupted.
// A job is queued when admitted (its record written), running when it
// holds a slot (from the driver source's call on), and terminal once its
// run returned and its record is written. interrupted has two codes:
// service_stopped (queued or running when [Runner.Close] was called) and
// service_restarted (found queued or running in the state folder by
// [New]: the previous runner ended without Close; the files of its run
// folder that its record does not list, evidence never committed, are
// removed, and the viewports it recorded stay recorded).
//
// # Limits
//
// | limit | default | rule |
// |---|---|---|
// | active browsers (slots) | 1 ([WithActiveBrowsers]) | jobs running at once, each with its own driver |
// | queued jobs | 4 ([WithMaxQueued]) | admitted while fewer than slots+queued jobs are queued or running; else queue_full |
// | retained runs | 64 ([WithRetainedRuns]) | jobs of any state kept; a submission beyond is queue_full until one expires (a record is never dropped early) |
// | run budget | 60 s, at most 120 s | per request ([Request].Budget), the whole job from its start (driver opening included); run_timeout |
// | steps | 40 ([WithMaxSteps]) | declared actions of the capability; more is refused at submission |
// | submission size | 32 KiB ([MaxSubmissionBytes]) | the JSON encoding of capability, inputs and label; [ErrTooLarge] |
// | artifact bytes per run | 20 MiB ([MaxRunArtifactBytes]) | the files of the job's run folder; a run above fails artifact_capacity and its files are removed |
// | retained-artifact admission | 200 MiB ([WithArtifactBudget]) | retained bytes + 20 MiB for every queued or running job, the new one included; else artifact_capacity |
// | expiry | 1 h ([Expiry]) | after acceptance; the janitor (every [JanitorInterval], on the [WithClock] clock) removes the record and folder, cancelling a job still not terminal |
//
// | viewports | 4 ([MaxViewports]) | per request; width 1..1920, height 1..1600, names a-z0-9_- unique; [*ViewportError] |
//
// # Viewports
//
// A request's viewports ([Request].Viewports) run the capability once
// each, in order, with a fresh driver of that size (a [ViewportSource]:
// [WithViewportSource], or an [Endpoint]'s OpenViewport;
// browser.(*Browser).OpenViewport fits), and a viewport whose run passes
// ends with a screenshot of the page's viewport ([Screenshotter];
// browser.(*Driver).Screenshot), kept as run/screenshots/<name>.png
// (0600) and listed in the record's artifacts. The record's
// [ViewportRecord]s give each viewport's outcome. Decisions:
//
//   - The first viewport that does not pass ends the job (seed: a failed
//     step stops the run and preserves prior artifacts); the job's
//     top-level result is that run's, or the last run's when all pass.
//   - Only a passing viewport is captured (seed: "each completed
//     viewport also produces a final screenshot"): a failure screenshot
//     could hold whatever the page showed when it went wrong, and nothing
//     asked for it.
//   - A screenshot counts against the per-run 20 MiB before it is
//     written (artifact_capacity otherwise) and, once retained, against
//     the admission budget, like every file of the run folder.
//   - A viewport driver without Screenshot fails the job
//     browser_unavailable (the provider cannot honour the request); a
//     capture that fails is browser_crashed (the worker ended without
//     its terminal artifact).
//   - Steps: total_steps is the declared actions times the viewports;
//     each step record names its viewport, its index counts from 1
//     within that viewport's run.
//   - Each viewport is committed as soon as its run ends, before the
//     next one opens: its [ViewportRecord], the steps of the viewports
//     run so far and the run folder's files (then exactly those
//     viewports' evidence) go into the record on disk, and the
//     Viewport hook reports it, so Status shows finished viewports
//     while the job runs. A restart keeps what was committed: the job
//     is interrupted service_restarted with those viewports, steps and
//     files, the viewport in flight is reset to its name and size, and
//     every file the record does not list is removed. A job that ends
//     artifact_capacity removes its whole run folder, committed
//     viewports' files included.
//
// # Browser endpoints
//
// [WithEndpoints] makes the slots a pool: each [Endpoint] (a launched
// browser, a remote CDP endpoint: browser.ConnectBrowser) has a name, a
// slot count, a driver source, optionally a viewport source, a health
// Check (default runtime.Preflight over its source) and a Done channel
// (browser.(*Browser).Done of a launched browser). [Runner.Endpoints]
// reports their health and load. Decisions:
//
//   - A job goes to the healthy endpoint with the most free slots (the
//     first given on a tie): load spreads before it stacks.
//   - Health is event-driven where it can be: Done closing takes the
//     endpoint out at once and for good; a job that ends
//     browser_crashed or browser_unavailable checks its endpoint before
//     giving the slot back, so queued work does not follow a dead
//     endpoint; a failed open checks it too. The periodic check
//     ([WithHealthInterval], default 10 s) brings an endpoint back and
//     finds one that died while idle. A check that runs out of time
//     ([HealthTimeout]) counts only the second time in a row: a dead
//     endpoint refuses or drops the connection at once, a slow answer
//     is a saturated machine, and taking every endpoint out for it
//     would fail the whole queue.
//   - Failover is for work that has not run: a job whose first driver
//     could not be opened on an endpoint found unhealthy moves its slot
//     to another healthy endpoint (waiting within its budget for a free
//     one) and opens there; nothing is repeated. A job in flight on an
//     endpoint that dies is never retried: its run ends browser_crashed
//     (seed: no automatic retry), its evidence written.
//   - With no healthy endpoint, Submit refuses browser_unavailable and
//     the queued jobs end failed browser_unavailable at once rather
//     than waiting up to an hour for an endpoint that may not return.
//     Admission (queue_full) counts the healthy endpoints' slots.
//   - The single-source runner is one endpoint named "default" that is
//     never health-checked (WithAvailability is its check), so its
//     behaviour is unchanged.
//
// # Error taxonomy
//
// Every job that did not pass has one [Code]. Vera's account of the run
// (terminal state, failure category, reason) stays next to it in the
// [Status]. The one mapping:
//
// | Vera | state | code |
// |---|---|---|
// | terminal completed | passed | — |
// | terminal business_outcome (a named legitimate answer, Status.Outcome) | passed | — |
// | category browser_unavailable; driver source error (other) | failed | browser_unavailable |
// | category browser_launch_failed; source error wrapping runtime.ErrBrowserLaunchFailed | failed | browser_launch_failed |
// | category target_not_allowed, origin_not_allowed, frame_not_allowed | failed | target_not_allowed |
// | category target_unreachable | failed | target_unreachable |
// | category ui_assertion_failed, locator_not_found, extraction_failed, download_failed, approval_refused, limit_exceeded, effect_unconfirmed; terminal stopped_at_gate, blocked_by_unknown_modal, native_gap, recovery_requested | failed | ui_assertion_failed |
// | category run_timeout (the capability's run_timeout_ms); the job's run budget | failed | run_timeout |
// | category browser_crashed, internal; source error wrapping runtime.ErrBrowserCrashed; any other Execute error without a Result; a run in flight on an endpoint that died; a viewport screenshot that failed | failed | browser_crashed |
// | a viewport driver without Screenshot; no healthy endpoint left for a queued job | failed | browser_unavailable |
// | runtime.ErrDriverBusy (a source that hands out a driver in use) | failed | browser_unavailable |
// | runtime.ErrRunDir, runtime.ErrEvidence, a run folder above 20 MiB (screenshots included), a screenshot not written | failed | artifact_capacity |
// | [Runner.Cancel], or expiry before the job ended | cancelled | cancelled (Vera's addition: the seed's cancelled state has no code) |
// | [Runner.Close] while queued or running | interrupted | service_stopped |
// | found non-terminal by [New] | interrupted | service_restarted |
// | Submit refusals: queue or retention full / artifact budget / availability check / closed runner | (none: an error) | queue_full / artifact_capacity / browser_unavailable / service_stopped ([CodeOf]) |
//
// # Decisions
//
//   - Submission is checked the way runtime.Execute checks a run, by
//     calling Execute without a driver: every refusal it makes before
//     the driver (state, validation, executor checks, inputs) is made at
//     Submit, and a good submission gets runtime.ErrNoDriver with nothing
//     reserved. A job therefore never fails for a reason its submission
//     showed, and no second copy of those rules exists here.
//   - Each job gets its own driver from the source and closes it at the
//     end: no job shares a page, a context or a driver with another
//     (browser.(*Browser).Open is such a source). The runner never
//     passes one driver to two runs, so runtime.ErrDriverBusy can only
//     come from a broken source.
//   - The caller's Submit ctx bounds the submission only: a job runs on
//     the runner's life context, so a disconnecting caller does not
//     cancel it; Cancel and Close do.
//   - Cancellation is idempotent: a queued job is cancelled at once
//     (record written, slot never taken); a running job is marked
//     cancel_requested and its run context cancelled, so it ends
//     cancelled with its evidence written; a terminal job is unchanged.
//   - The state folder: one owner-only folder (0700) per job, job_<hex>,
//     holding job.json (0600, written with internal/safefs's atomic
//     replace on every state change) and run/, the run's
//     runtime.WithRunDir. A record holds no input value and no
//     capability; it holds the run's model outputs (the answer), the
//     receipt hash and each step's outcome. Terminal records survive a
//     restart; the retained bytes are recomputed from them.
//   - A job that was accepted but whose folder has no record (a crash
//     between the two) is removed at restart: it was never acknowledged.
//   - Hooks ([Hooks]) are called without the runner's lock: state
//     changes, queue positions (at acceptance and whenever a job ahead
//     leaves the queue), per-step progress (each action's start and
//     end, from the runtime's hooks) and each viewport's committed
//     result.
package jobs
