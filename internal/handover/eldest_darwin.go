package handover

// eldestChild reports true on macOS, which has no cheap way to list a
// process's children: the pass-through then goes by parent and arguments
// alone.
func eldestChild(ppid int) bool { return true }
