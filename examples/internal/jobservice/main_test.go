package jobservice_test

import (
	"os"
	"testing"

	"github.com/vera-run/vera/internal/testmain"
)

func TestMain(m *testing.M) { os.Exit(testmain.Run(m, "vjs-")) }
