package testsite

import (
	"net/http"
	"sync"
)

// Compose page paths on the Teller origin (public, no session): a post
// composer whose draft is saved first and published on a separate review
// page, as content tools do it. Saving is reversible; publishing is the
// external action.
const (
	// ComposePath is GET the composer: textbox "Title", textbox "Body"
	// and button "Save draft", which submits (POST [ComposeDraftPath]).
	ComposePath = "/compose"
	// ComposeDraftPath is POST a draft (form title, body): it stores the
	// draft ([Teller.Drafts] counts one) and redirects (303) to
	// [ComposeReviewPath].
	ComposeDraftPath = "/compose/draft"
	// ComposeReviewPath is GET the review page: heading "Review post",
	// the saved title in a paragraph, and button "Publish", which submits
	// (POST [ComposePublishPath]). With [Teller.ShowComposeSurvey] the page
	// also shows an unexpected modal dialog "Quick survey".
	ComposeReviewPath = "/compose/review"
	// ComposePublishPath is POST the publication: it counts one
	// ([Teller.Publishes]) and redirects (303) to [ComposePublishedPath].
	ComposePublishPath = "/compose/publish"
	// ComposePublishedPath shows the heading "Post published".
	ComposePublishedPath = "/compose/published"
)

// composeState is the composer's state: the last saved draft title and
// the counters. It has its own lock so it never contends with the
// teller's sessions.
type composeState struct {
	mu        sync.Mutex
	title     string
	drafts    int
	publishes int
	survey    bool
}

type composeData struct {
	Title  string
	Draft  string
	Survey bool
}

func (t *Teller) composeRoutes(mux *http.ServeMux) {
	c := &t.compose
	mux.HandleFunc("GET "+ComposePath, func(w http.ResponseWriter, r *http.Request) {
		render(w, http.StatusOK, "compose.html", composeData{Title: "New post"})
	})
	mux.HandleFunc("POST "+ComposeDraftPath, func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		c.mu.Lock()
		c.title = r.PostForm.Get("title")
		c.drafts++
		c.mu.Unlock()
		http.Redirect(w, r, ComposeReviewPath, http.StatusSeeOther)
	})
	mux.HandleFunc("GET "+ComposeReviewPath, func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		d := composeData{Title: "Review post", Draft: c.title, Survey: c.survey}
		c.mu.Unlock()
		render(w, http.StatusOK, "compose_review.html", d)
	})
	mux.HandleFunc("POST "+ComposePublishPath, func(w http.ResponseWriter, r *http.Request) {
		c.mu.Lock()
		c.publishes++
		c.mu.Unlock()
		http.Redirect(w, r, ComposePublishedPath, http.StatusSeeOther)
	})
	mux.HandleFunc("GET "+ComposePublishedPath, func(w http.ResponseWriter, r *http.Request) {
		render(w, http.StatusOK, "compose_published.html", composeData{Title: "Post published"})
	})
}

// Drafts counts the drafts saved (each POST [ComposeDraftPath]).
func (t *Teller) Drafts() int {
	t.compose.mu.Lock()
	defer t.compose.mu.Unlock()
	return t.compose.drafts
}

// Publishes counts the publications (each POST [ComposePublishPath]): the
// external effect a draft-only run must never cause.
func (t *Teller) Publishes() int {
	t.compose.mu.Lock()
	defer t.compose.mu.Unlock()
	return t.compose.publishes
}

// ShowComposeSurvey makes review pages loaded after the call show (on) or
// not show (off) an unexpected modal dialog "Quick survey" with a button
// "Not now", as sites show feedback prompts.
func (t *Teller) ShowComposeSurvey(on bool) {
	t.compose.mu.Lock()
	defer t.compose.mu.Unlock()
	t.compose.survey = on
}
