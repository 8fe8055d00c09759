// The page's script (being built).
