package browser

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// TestRunDirGitWorkTreeRefusedBeforeBrowser: a run folder inside a Git
// work tree is refused before the browser is touched: the test site gets
// not a single request, nothing is created in the work tree, and the
// approver is never asked. With the opt-out the same run reaches the site
// and writes its evidence there.
func TestRunDirGitWorkTreeRefusedBeforeBrowser(t *testing.T) {
	t.Parallel()
	d := shared(t)
	s := sites(t)
	c := tellerCapability(t, s)
	inputs := map[string]any{"username": "teller1", "password": "correct horse battery", "member_id": "100234"}
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o700); err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(repo, "evidence")
	asked := 0
	approver := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Approval, error) {
		asked++
		return runtime.Approval{}, errors.New("unexpected")
	})

	ctx := tctx(t, 60*time.Second)
	res, err := runtime.Execute(ctx, c, inputs, runtime.WithDriver(d), runtime.WithRunDir(runs), runtime.WithApprover(approver))
	var rde *receipt.RunDirError
	if res != nil || !errors.Is(err, runtime.ErrRunDir) || !errors.As(err, &rde) || rde.Check != receipt.RunDirGitWorkTree {
		t.Fatalf("res %v err %v: want ErrRunDir (git_work_tree)", res, err)
	}
	if n := s.Teller.TotalHits(); n != 0 || asked != 0 {
		t.Fatalf("the refused run reached the site %d times, approver asked %d times", n, asked)
	}
	if es, err := os.ReadDir(repo); err != nil || len(es) != 1 || es[0].Name() != ".git" {
		t.Fatalf("left in the work tree: %v %v", es, err)
	}

	res = execute(t, ctx, d, c, inputs, runtime.WithRunDir(runs), runtime.WithAllowGitWorkTree())
	wantState(t, res, runtime.StateCompleted, "")
	if s.Teller.TotalHits() == 0 || filepath.Dir(res.RunDir) != runs {
		t.Fatalf("opt-out run: hits %d, evidence in %s", s.Teller.TotalHits(), res.RunDir)
	}
}
