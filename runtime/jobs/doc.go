// Package jobs is a bounded job runner for capabilities: a host submits
// a capability with inputs ([Runner.Submit]), the runner admits it
// within its limits or refuses it with a typed error, runs admitted jobs
// in acceptance order on a fixed number of slots, each with a fresh
// driver from its [DriverSource], and keeps every job's record on disk
// until it expires. It follows the browser job contract v1 (seed 003):
// states, limits and error taxonomy; the HTTP service over it is later
// work (examples/jobserver).
//
// Built on golang.org/x/sync: a [semaphore.Weighted] of
// ActiveBrowsers slots and an [errgroup.Group] that owns every goroutine
// of the runner (the dispatcher, the janitor and one per running job),
// which [Runner.Close] waits for. One dispatcher takes a slot, then the
// head of the queue, so jobs start in acceptance order (goroutines
// racing for the semaphore would not: their Acquire order is the
// scheduler's, not the queue's).
//
// # States
//
// queued → running → passed | failed | cancelled, and interrupted.
// A job is queued when admitted (its record written), running when it
// holds a slot (from the driver source's call on), and terminal once its
// run returned and its record is written. interrupted has two codes:
// service_stopped (queued or running when [Runner.Close] was called) and
// service_restarted (found queued or running in the state folder by
// [New]: the previous runner ended without Close; its run folder, whose
// evidence was never committed, is removed).
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
// Viewports (seed 003's per-viewport contexts and screenshots) are not
// implemented yet: a capability runs once, in one browser context.
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
// | category browser_crashed, internal; source error wrapping runtime.ErrBrowserCrashed; any other Execute error without a Result | failed | browser_crashed |
// | runtime.ErrDriverBusy (a source that hands out a driver in use) | failed | browser_unavailable |
// | runtime.ErrRunDir, runtime.ErrEvidence, a run folder above 20 MiB | failed | artifact_capacity |
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
//     leaves the queue) and per-step progress (each action's start and
//     end, from the runtime's hooks).
package jobs
