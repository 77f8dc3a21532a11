print("soak: not yet")
