/// A value as a chart labels it: to 0.1, whole from 1,000 up (10,203 steps, not 10202.916667).
public enum ChartLabel {
  public static func text(_ value: Double) -> String {
    Cell.real(abs(value) >= 1000 ? value.rounded() : (value * 10).rounded() / 10).plainText(localTime: false)
  }
}
