package leader

// peerIsParent is true on macOS: what LOCAL_PEERPID reports for a socket
// pair is not documented, and a socket on CtlFD is already what no hook
// of claude's has (claude gives its children their standard files only).
func peerIsParent(fd int) bool { return true }
