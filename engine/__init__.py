"""railbook engine: a generic interpreter of compiled 18xx rulebooks."""
