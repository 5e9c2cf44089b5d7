package proc

import "errors"

// BecomeSubreaper is not available on macOS: orphans always reparent to
// launchd. Supervisors snapshot the tree before a kill and find escaped
// processes by environment marker instead ([FindByEnv]).
func BecomeSubreaper() error {
	return errors.ErrUnsupported
}

// SubreaperSupported reports whether [BecomeSubreaper] can work here.
const SubreaperSupported = false
