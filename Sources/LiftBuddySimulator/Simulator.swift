public enum Simulator {}
