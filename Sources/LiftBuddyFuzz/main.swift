print("fuzz: not yet")
