import TributaryLocks

/// The base class of a stage that keeps its state machine under a ``LockedState`` (`buffer`'s
/// stage, the `values` bridge), for the calls made for every value.
///
/// A debug build runs those stages unspecialised, and a stage's own call of `state.withLock`
/// looks up the metadata of the machine's type first, about 330 instructions per call, since the
/// stage knows that type only as one made of its generic parameters. ``withMachine(_:)``, a method
/// of this class, takes the type from the object instead: `Machine` is this class's generic
/// parameter, which the subclass's metadata records. Optimised builds inline it to the same code
/// as `state.withLock`. ``DeliveryEmitter`` does the same for the fan-in operators.
@usableFromInline
class LockedMachineOwner<Machine> {
    /// The state machine, under its mutex.
    @usableFromInline
    final let state: LockedState<Machine>

    @inlinable
    init(_ machine: Machine) {
        state = LockedState(machine)
    }

    /// `state.withLock(body)`, without the look-up of the machine's metadata in a debug build.
    @inlinable
    final func withMachine<Result>(_ body: (inout Machine) -> Result) -> Result {
        state.withLock(body)
    }
}
