// Command mailsearch runs the mail search capability on the synthetic
// hash-routed mail client and prints what the host model may see:
//
//	go run ./examples/mailsearch [-browser PATH] [-query WORDS] [-out DIR]
//
// The capability (mail_search.capability.json, a copy of the test data's
// reviewed mail search, state authored) types the query, presses Enter and proves the search
// happened with the postcondition url_includes "#search/{{query}}" before
// it reads the result list. The program runs it twice: once normally,
// printing the records, and once with the site's search button stuck
// (testsite Mail.SetStuckSearch), where the route never changes, so the
// postcondition fails and the run ends failed with ui_assertion_failed
// instead of reading a stale inbox. It uses browser.Launch: a
// provider-launched Chromium is fine for runs that are not finalized.
//
// Invariants:
//   - The program succeeds only when the normal search completed and the
//     stuck search failed its postcondition with no messages produced.
//   - Only model_and_artifact values are printed as model-visible.
//
// Decisions where the brief was silent:
//   - The capability is a copy of capability/testdata/valid/mail_search.json
//     written by hand (state authored, provenance hand_authored with its
//     author, reason and review; no invented discovery record): the
//     runtime executes authored, discovered and validated_local
//     capabilities.
//   - One launched browser serves both runs; each Execute starts over from
//     the capability's start page.
package main
