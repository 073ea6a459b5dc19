public enum LiftBuddyDaemon {}
