package notify

// Wait waits for the notifications Check started.
func (w *Watcher) Wait() { w.posts.Wait() }
