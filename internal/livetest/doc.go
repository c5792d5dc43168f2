// Package livetest is the browser plumbing of the module's live tests
// (tests that run real Chromium): the rule for skipping without a
// browser, a Chromium with a DevTools port that the test owns (an
// operator's browser, for connect mode) with the teller console of
// internal/testsite, the teller bundle sealed in it as the quickstart
// seals it, and a grid of several such Chromium processes, each
// connected as a browser.Browser (a stand-in for a grid of remote CDP
// endpoints), with the means to kill a node while a run on it is in
// flight. Only tests import it.
//
// Invariants:
//   - RequireBrowser skips when no browser is found, unless
//     VERA_REQUIRE_BROWSER=1, when it fails the test instead; every
//     helper that starts a browser skips through it before starting
//     anything.
//   - Every Chromium started here is closed when the test ends (its
//     process group and every process naming its private directory
//     killed, the directory deleted); a Close that leaves a process or
//     the directory behind fails the test. A grid's connected Browsers
//     are closed before their Chromium, a site after the Chromium.
//   - Starts and connections are bounded ([StartTimeout]), a kill's
//     wait by [KillTimeout], a held run by a minute; nothing here
//     sleeps.
//   - It imports runtime/browser, runtime, receipt and bundle (and what
//     they import), never runtime/jobs or a package above it: the
//     in-package tests of runtime/jobs, runtime/provider and
//     capability/convert use it, so a grid's nodes are turned into
//     endpoints by the caller. In-package tests of the packages it
//     imports cannot use it (an import cycle).
package livetest
