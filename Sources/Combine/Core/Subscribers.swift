/// The namespace for the subscriber types and for the values subscribers exchange with
/// publishers: ``Subscribers/Demand`` and ``Subscribers/Completion``.
///
/// Open to extension by user code, as on Apple's platforms.
public enum Subscribers {}
