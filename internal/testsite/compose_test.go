package testsite

import (
	"net/url"
	"testing"
)

func TestCompose(t *testing.T) {
	tl := startTeller(t)
	c := newClient(t)
	r := c.get(tl.URL() + ComposePath)
	wantStatus(t, r, 200)
	wantContains(t, r, `<label for="post-title">Title</label>`, `<label for="post-body">Body</label>`, "Save draft")
	wantRedirect(t, c.postForm(tl.URL()+ComposeDraftPath, url.Values{"title": {"Spring <update>"}, "body": {"Hello"}}), 303, ComposeReviewPath)
	if n := tl.Drafts(); n != 1 {
		t.Errorf("Drafts() = %d, want 1", n)
	}
	r = c.get(tl.URL() + ComposeReviewPath)
	wantContains(t, r, "Review post", "Spring &lt;update&gt;", ">Publish</button>")
	wantNotContains(t, r, "Quick survey")
	tl.ShowComposeSurvey(true)
	wantContains(t, c.get(tl.URL()+ComposeReviewPath), `role="dialog"`, `aria-modal="true"`, "Quick survey", "Not now")
	if n := tl.Publishes(); n != 0 {
		t.Errorf("Publishes() = %d before publishing, want 0", n)
	}
	wantRedirect(t, c.postForm(tl.URL()+ComposePublishPath, url.Values{}), 303, ComposePublishedPath)
	if n := tl.Publishes(); n != 1 {
		t.Errorf("Publishes() = %d, want 1", n)
	}
	wantContains(t, c.get(tl.URL()+ComposePublishedPath), "Post published")
}
