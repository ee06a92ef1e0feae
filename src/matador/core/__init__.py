"""The rules core: standard library only, no I/O, no clock, no global randomness."""
