/// The catalogue's own marble demos of the time operators (no book prints them): their event
/// logs on virtual time. The charts `--marbles` adds are checked in MarbleChartTests.
extension ExpectedOutput {
    static let marbleDemos: [Expected] = [
        .notPrinted("marbles-merge", prints: """
            +0.1s  first   a
            +0.1s  output  a
            +0.2s  second  b
            +0.2s  output  b
            +0.5s  first   c
            +0.5s  output  c
            +0.6s  second  d
            +0.6s  output  d
            +0.9s  first   e
            +0.9s  output  e
            +1.1s  first   finished
            +1.1s  second  finished
            +1.1s  output  finished

            """),
        .notPrinted("marbles-switch-to-latest", prints: """
            +0.0s  inner 0  a
            +0.1s  outer    0
            +0.1s  inner 1  p
            +0.2s  inner 0  b
            +0.2s  output   b
            +0.3s  inner 1  q
            +0.4s  inner 0  c
            +0.4s  output   c
            +0.5s  inner 1  r
            +0.6s  outer    1
            +0.6s  inner 0  d
            +0.7s  inner 1  s
            +0.7s  output   s
            +0.8s  inner 0  e
            +0.9s  inner 1  t
            +0.9s  output   t
            +1.0s  inner 0  finished
            +1.1s  inner 1  u
            +1.1s  output   u
            +1.2s  inner 1  finished
            +1.3s  outer    finished
            +1.3s  output   finished

            """),
        .notPrinted("marbles-collect-by-time", prints: """
            +0.1s  input   a
            +0.3s  input   b
            +0.5s  input   c
            +0.5s  output  abc
            +0.8s  input   d
            +1.0s  output  d
            +1.3s  input   e
            +1.5s  input   finished
            +1.5s  output  e
            +1.5s  output  finished

            """),
        .notPrinted("marbles-debounce", prints: """
            +0.1s  input   a
            +0.3s  input   b
            +0.5s  input   c
            +0.8s  output  c
            +1.3s  input   d
            +1.5s  input   e
            +1.8s  output  e
            +2.0s  input   finished
            +2.0s  output  finished

            """),
        .notPrinted("marbles-delay", prints: """
            +0.1s  input   a
            +0.3s  output  a
            +0.4s  input   b
            +0.6s  input   c
            +0.6s  output  b
            +0.8s  output  c
            +1.0s  input   finished
            +1.2s  output  finished

            """),
        .notPrinted("marbles-throttle", prints: """
            +0.1s  input   a
            +0.1s  output  a
            +0.2s  input   b
            +0.4s  input   c
            +0.5s  output  c
            +0.6s  input   d
            +0.9s  output  d
            +1.1s  input   e
            +1.2s  input   f
            +1.3s  output  f
            +1.8s  input   finished
            +1.8s  output  finished

            """),
        .notPrinted("marbles-timeout", prints: """
            +0.1s  input   a
            +0.1s  output  a
            +0.4s  input   b
            +0.4s  output  b
            +0.9s  output  failure(TimedOut)
            +1.3s  input   c
            +1.4s  input   finished

            """),
        .notPrinted("marbles-timer", prints: """
            +1.0s  timer   t
            +1.0s  output  1
            +2.0s  timer   t
            +2.0s  output  2
            +3.0s  timer   t
            +3.0s  output  3
            +3.0s  output  finished
            +3.0s  timer   finished

            """),
    ]
}
