package safefs

import (
	"math/rand/v2"
	"strconv"
)

func randText() string { return strconv.FormatUint(rand.Uint64(), 36) }
