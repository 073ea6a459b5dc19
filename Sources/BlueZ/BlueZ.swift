public enum BlueZ {}
