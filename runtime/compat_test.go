package runtime_test

import (
	"encoding/json"
	"errors"
	"os"
)

func os_ReadDir(dir string) ([]os.DirEntry, error) { return os.ReadDir(dir) }

func json_Number(s string) json.Number { return json.Number(s) }

func errorsIs(err, target error) bool { return errors.Is(err, target) }
