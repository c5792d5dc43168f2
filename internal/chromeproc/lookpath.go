package chromeproc

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// searchList is where [LookPath] looks, in order, per operating system:
// program names resolved through PATH first, then the usual install
// locations of Chrome, Chromium and Edge. The list is Vera's own (the
// same places go-rod's and chromedp's lists name) so that no browser
// download machinery is linked into programs that embed Vera.
func searchList(goos string) []string {
	switch goos {
	case "darwin":
		return []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
			"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
			"/Applications/Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
			"/usr/bin/google-chrome-stable",
			"/usr/bin/google-chrome",
			"/usr/bin/chromium",
			"/usr/bin/chromium-browser",
		}
	case "windows":
		l := []string{"chrome", "msedge"}
		for _, env := range []string{"LOCALAPPDATA", "PROGRAMFILES", "PROGRAMFILES(X86)"} {
			base := os.Getenv(env)
			if base == "" {
				continue
			}
			l = append(l,
				filepath.Join(base, `Google\Chrome\Application\chrome.exe`),
				filepath.Join(base, `Chromium\Application\chrome.exe`),
				filepath.Join(base, `Microsoft\Edge\Application\msedge.exe`),
			)
		}
		return l
	default: // linux and the BSDs
		return []string{
			"chromium",
			"chromium-browser",
			"google-chrome-stable",
			"google-chrome",
			"chrome",
			"microsoft-edge",
			"/usr/bin/chromium",
			"/usr/bin/chromium-browser",
			"/usr/bin/google-chrome-stable",
			"/usr/bin/google-chrome",
			"/usr/bin/microsoft-edge",
			"/snap/bin/chromium",
		}
	}
}

// LookPath returns the first executable of the search list for this
// operating system, as an absolute path, and whether one was found. It
// never downloads anything.
func LookPath() (string, bool) {
	for _, p := range searchList(runtime.GOOS) {
		if found, err := exec.LookPath(p); err == nil {
			if abs, err := filepath.Abs(found); err == nil {
				return abs, true
			}
			return found, true
		}
	}
	return "", false
}
