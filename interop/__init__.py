"""Interoperability with other 18xx tools: export titles to 18xx-maker, import its game files as titles."""
