"""railbook compiler: load, validate, compile and render 18xx titles."""
