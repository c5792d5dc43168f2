package jobs

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"

	"github.com/vera-run/vera/internal/safefs"
	"github.com/vera-run/vera/receipt"
	"github.com/vera-run/vera/runtime"
)

// The viewport limits of the browser job contract v1 (seed 003).
const (
	// MaxViewports is the most viewports a request may declare.
	MaxViewports = 4
	// MaxViewportWidth and MaxViewportHeight bound a viewport, in CSS
	// pixels (the limits of browser.WithViewport).
	MaxViewportWidth  = 1920
	MaxViewportHeight = 1600
	// MaxViewportName is the longest viewport name, in bytes.
	MaxViewportName = 32
)

// screenshotDir is the folder of a job's viewport screenshots inside its
// run folder; a screenshot's artifact name is screenshotDir/<name>.png.
const screenshotDir = "screenshots"

// Viewport is one named viewport of a [Request]: the capability runs in a
// fresh browser context of Width x Height CSS pixels and, when that run
// passes, the page is captured as a viewport-sized PNG kept as a private
// artifact of the job, "screenshots/<name>.png" in its run folder.
type Viewport struct {
	// Name names the viewport in the record and the screenshot's file:
	// 1 to 32 bytes of a-z, 0-9, '-' and '_', starting with a letter or
	// a digit, unique in the request.
	Name string `json:"name"`
	// Width (1..MaxViewportWidth) and Height (1..MaxViewportHeight) are
	// CSS pixels.
	Width  int `json:"width"`
	Height int `json:"height"`
}

// viewportName is the rule for Viewport.Name.
var viewportName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,31}$`)

// ErrInvalidViewport is wrapped by every [*ViewportError]: a request's
// viewports break a rule of the contract. It comes with
// [ErrInvalidRequest] (errors.Is matches both).
var ErrInvalidViewport = errors.New("jobs: invalid viewport")

// ViewportProblem is the machine-readable rule a viewport breaks.
type ViewportProblem string

// The viewport problems.
const (
	// ViewportTooMany: more than MaxViewports viewports.
	ViewportTooMany ViewportProblem = "too_many_viewports"
	// ViewportBadName: a name that is empty, too long or not of
	// a-z, 0-9, '-' and '_' (starting with a letter or digit).
	ViewportBadName ViewportProblem = "bad_name"
	// ViewportDuplicateName: a name given twice.
	ViewportDuplicateName ViewportProblem = "duplicate_name"
	// ViewportBadWidth, ViewportBadHeight: a size outside
	// 1..MaxViewportWidth or 1..MaxViewportHeight.
	ViewportBadWidth  ViewportProblem = "bad_width"
	ViewportBadHeight ViewportProblem = "bad_height"
	// ViewportUnsupported: the runner has no viewport driver source
	// (WithViewportSource, or an Endpoint without OpenViewport).
	ViewportUnsupported ViewportProblem = "viewports_unsupported"
)

// ViewportError is a refused request's viewport: which one (Index from
// 0, -1 for the list as a whole), its name when it has a usable one, and
// the rule it breaks. It matches [ErrInvalidViewport] and
// [ErrInvalidRequest] with errors.Is.
type ViewportError struct {
	Index   int
	Name    string
	Problem ViewportProblem
	Detail  string
}

func (e *ViewportError) Error() string {
	where := "viewports"
	if e.Index >= 0 {
		where = fmt.Sprintf("viewports[%d]", e.Index)
		if e.Name != "" {
			where += fmt.Sprintf(" (%q)", e.Name)
		}
	}
	return fmt.Sprintf("jobs: invalid request: %s: %s: %s", where, e.Problem, e.Detail)
}

// Is matches ErrInvalidViewport and ErrInvalidRequest.
func (e *ViewportError) Is(target error) bool {
	return target == ErrInvalidViewport || target == ErrInvalidRequest
}

// checkViewports applies the viewport rules to a request's list.
func checkViewports(vps []Viewport) error {
	if len(vps) > MaxViewports {
		return &ViewportError{Index: -1, Problem: ViewportTooMany, Detail: fmt.Sprintf("%d viewports, at most %d", len(vps), MaxViewports)}
	}
	seen := map[string]bool{}
	for i, v := range vps {
		if !viewportName.MatchString(v.Name) {
			name := v.Name
			if len(name) > MaxViewportName {
				name = ""
			}
			return &ViewportError{Index: i, Name: name, Problem: ViewportBadName,
				Detail: fmt.Sprintf("a name is 1 to %d bytes of a-z, 0-9, '-' and '_', starting with a letter or digit", MaxViewportName)}
		}
		if seen[v.Name] {
			return &ViewportError{Index: i, Name: v.Name, Problem: ViewportDuplicateName, Detail: "names are unique in a request"}
		}
		seen[v.Name] = true
		if v.Width < 1 || v.Width > MaxViewportWidth {
			return &ViewportError{Index: i, Name: v.Name, Problem: ViewportBadWidth, Detail: fmt.Sprintf("width %d outside 1..%d", v.Width, MaxViewportWidth)}
		}
		if v.Height < 1 || v.Height > MaxViewportHeight {
			return &ViewportError{Index: i, Name: v.Name, Problem: ViewportBadHeight, Detail: fmt.Sprintf("height %d outside 1..%d", v.Height, MaxViewportHeight)}
		}
	}
	return nil
}

// ViewportSource opens a fresh driver whose pages lay out at width x
// height CSS pixels; the runner closes it when the viewport's run ends.
// browser.(*Browser).OpenViewport fits.
type ViewportSource func(ctx context.Context, width, height int) (runtime.Driver, error)

// Screenshotter is what a viewport's driver must offer besides
// runtime.Driver: a PNG of the top-level page's viewport
// (browser.(*Driver).Screenshot). A viewport whose driver has none fails
// the job with browser_unavailable.
type Screenshotter interface {
	Screenshot(ctx context.Context) ([]byte, error)
}

// WithViewportSource sets the driver source of requests with viewports
// for a runner over one DriverSource (an [Endpoint] has its own
// OpenViewport). Without one, a request with viewports is refused
// ([ViewportUnsupported]).
func WithViewportSource(open ViewportSource) Option {
	return func(c *config) { c.viewportSource = open }
}

// ViewportRecord is one viewport's part of a job record: its name and
// size from the request, then, once its run ended, how it ended (State
// passed or failed, or cancelled and interrupted as the job), Vera's
// account of the run and the screenshot's artifact name and size.
// Viewports run in request order; the first that does not pass ends the
// job, and the viewports after it are never run (their State stays
// empty).
type ViewportRecord struct {
	Name   string `json:"name"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	State  State  `json:"state,omitempty"`
	Code   Code   `json:"error,omitempty"`
	// Terminal, Category, Reason and Outcome: as in [Status], for this
	// viewport's run.
	Terminal receipt.TerminalState `json:"terminal,omitempty"`
	Category receipt.Category      `json:"category,omitempty"`
	Reason   string                `json:"reason,omitempty"`
	Outcome  string                `json:"outcome,omitempty"`
	// Outputs are this viewport's model outputs.
	Outputs map[string]any `json:"outputs,omitempty"`
	// RunID and ReceiptHash identify this viewport's run evidence.
	RunID       string `json:"run_id,omitempty"`
	ReceiptHash string `json:"receipt_hash,omitempty"`
	// Screenshot is the artifact name of the final viewport screenshot
	// ("screenshots/<name>.png"), ScreenshotBytes its size; empty when
	// the viewport did not pass.
	Screenshot      string `json:"screenshot,omitempty"`
	ScreenshotBytes int64  `json:"screenshot_bytes,omitempty"`
}

// viewportRecords are a request's viewports as records not run yet.
func viewportRecords(vps []Viewport) []ViewportRecord {
	if len(vps) == 0 {
		return nil
	}
	rs := make([]ViewportRecord, len(vps))
	for i, v := range vps {
		rs[i] = ViewportRecord{Name: v.Name, Width: v.Width, Height: v.Height}
	}
	return rs
}

// pruneUncommitted removes every file of a run folder that the record
// does not list with its size (evidence begun but never committed: the
// run in flight when the runner ended), then the folders left empty,
// and returns the files that stay. With nothing listed the whole folder
// goes.
func pruneUncommitted(runDir string, listed []Artifact) ([]Artifact, int64) {
	keep := map[string]int64{}
	for _, a := range listed {
		keep[a.Name] = a.Size
	}
	if len(keep) == 0 {
		_ = os.RemoveAll(runDir)
		return nil, 0
	}
	var dirs []string
	_ = filepath.WalkDir(runDir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == runDir {
			return nil
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		rel, _ := filepath.Rel(runDir, p)
		if size, ok := keep[filepath.ToSlash(rel)]; ok && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil && fi.Size() == size {
				return nil
			}
		}
		_ = os.Remove(p)
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		_ = os.Remove(dirs[i]) // only an empty one goes; children come after their parent
	}
	return listArtifacts(runDir)
}

// keepCommitted makes an interrupted record consistent with the files
// that stayed after pruneUncommitted: a committed viewport (one with a
// State) keeps its result, less a screenshot or run no longer among the
// artifacts; the others are reset to name and size; the steps are the
// committed viewports' (all a commit ever wrote), and completed_steps
// their count.
func keepCommitted(st *Status) {
	have := map[string]bool{}
	for _, a := range st.Artifacts {
		have[a.Name] = true
	}
	committed := map[string]bool{}
	for i, v := range st.Viewports {
		if v.State == "" {
			st.Viewports[i] = ViewportRecord{Name: v.Name, Width: v.Width, Height: v.Height}
			continue
		}
		committed[v.Name] = true
		if v.Screenshot != "" && !have[v.Screenshot] {
			st.Viewports[i].Screenshot, st.Viewports[i].ScreenshotBytes = "", 0
		}
		if v.RunID != "" && !have[path.Join(v.RunID, "run.receipt.json")] {
			st.Viewports[i].RunID, st.Viewports[i].ReceiptHash, st.Viewports[i].Outputs = "", "", nil
		}
	}
	steps := st.Steps[:0:0]
	for _, s := range st.Steps {
		if s.Viewport != "" && committed[s.Viewport] {
			steps = append(steps, s)
		}
	}
	if len(steps) == 0 {
		steps = nil
	}
	st.Steps, st.CompletedSteps = steps, len(steps)
}

// saveScreenshot captures drv's viewport and writes it, owner-only
// (0600, in a 0700 folder), as screenshots/<name>.png of runDir, unless
// the run folder would then hold more than MaxRunArtifactBytes. It
// returns the artifact name and size, or the code the job fails with.
func saveScreenshot(ctx context.Context, drv runtime.Driver, runDir, name string) (string, int64, Code, error) {
	sh, ok := drv.(Screenshotter)
	if !ok {
		return "", 0, CodeBrowserUnavailable, errors.New("the viewport's driver cannot take a screenshot")
	}
	png, err := sh.Screenshot(ctx)
	if err != nil {
		return "", 0, CodeBrowserCrashed, fmt.Errorf("screenshot: %w", err)
	}
	if _, used := listArtifacts(runDir); used+int64(len(png)) > MaxRunArtifactBytes {
		return "", 0, CodeArtifactCapacity, fmt.Errorf("screenshot of %d bytes over the run's %d artifact bytes (%d used)", len(png), MaxRunArtifactBytes, used)
	}
	if err := os.Mkdir(filepath.Join(runDir, screenshotDir), 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", 0, CodeArtifactCapacity, err
	}
	root, err := os.OpenRoot(runDir)
	if err != nil {
		return "", 0, CodeArtifactCapacity, err
	}
	defer root.Close()
	rel := path.Join(screenshotDir, name+".png")
	if err := safefs.WriteFileAtomic(root, rel, png); err != nil {
		return "", 0, CodeArtifactCapacity, err
	}
	return rel, int64(len(png)), "", nil
}
