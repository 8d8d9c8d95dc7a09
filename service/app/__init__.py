"""Starting the server: its settings (config), its composition (server), the `brass serve`
entry (main) and the supervisor of worker processes (workers)."""
