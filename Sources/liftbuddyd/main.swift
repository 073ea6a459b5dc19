print("liftbuddyd: not yet")
