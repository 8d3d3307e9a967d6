@testable import Combine
import Testing

/// The default `objectWillChange` reads each `@Published` property's storage straight out of the
/// object, at offsets it finds once per class (`PublishedFieldLayout`). These tests check the
/// layout that read relies on, for the kinds of values a property holds, and that the offsets it
/// finds lead to the very storage `$property` publishes from.
@Suite("PublishedFieldLayout")
struct PublishedFieldLayoutTests {
    struct Wide { var a = 0, b = 0.0, c = "", d: [Int] = [] }
    enum Choice { case one, two(String) }
    final class Reference {}

    class Model: ObservableObject {
        @Published var flag = false
        var plain = 0
        @Published var text = ""
        @Published var wide = Wide()
        @Published var choice = Choice.one
        @Published var optional: Int? = nil
        @Published var reference = Reference()
        @Published var closure: () -> Int = { 1 }
    }

    final class SubModel: Model {
        @Published var extra = 0.0
    }

    final class Generic<Value>: ObservableObject {
        @Published var first: Value
        let other = 1
        @Published var second: [Value]

        init(_ value: Value) {
            first = value
            second = [value]
        }
    }

    @Test func publishedIsOneReferenceToItsStorageWhateverTheValue() {
        #expect(PublishedFieldLayout.holdsOneSlot(Published<Bool>.self))
        #expect(PublishedFieldLayout.holdsOneSlot(Published<String>.self))
        #expect(PublishedFieldLayout.holdsOneSlot(Published<Wide>.self))
        #expect(PublishedFieldLayout.holdsOneSlot(Published<Choice>.self))
        #expect(PublishedFieldLayout.holdsOneSlot(Published<Int?>.self))
        #expect(PublishedFieldLayout.holdsOneSlot(Published<Reference>.self))
        #expect(PublishedFieldLayout.holdsOneSlot(Published<() -> Int>.self))
        #expect(PublishedFieldLayout.holdsOneSlot(Published<(Int, String, Wide)>.self))
    }

    @Test func theCheckRejectsOtherLayouts() {
        // A wrapper of two words, one whose only field is not a slot, and a plain value.
        struct TwoFields { var slot: PublishedObjectWillChangeSlot; var more: Int }
        struct NotASlot { var reference: Reference }
        #expect(!PublishedFieldLayout.holdsOneSlot(TwoFields.self))
        #expect(!PublishedFieldLayout.holdsOneSlot(NotASlot.self))
        #expect(!PublishedFieldLayout.holdsOneSlot(Int.self))
    }

    @Test func offsetsLeadToEachPropertysStorage() {
        let model = SubModel()
        let offsets = PublishedFieldLayout.offsets(in: SubModel.self)
        // The superclass's properties first, in declaration order, then the subclass's.
        let storages: [AnyObject] = [
            model.$flag.storage, model.$text.storage, model.$wide.storage, model.$choice.storage,
            model.$optional.storage, model.$reference.storage, model.$closure.storage, model.$extra.storage,
        ]
        #expect(offsets.count == storages.count)
        for (offset, storage) in zip(offsets, storages) {
            #expect(PublishedFieldLayout.slot(in: model, at: offset) === storage)
        }
        #expect(PublishedFieldLayout.offsets(in: Model.self).count == storages.count - 1)
    }

    @Test func offsetsOfAGenericClassDependOnItsArgument() {
        let small = Generic(1)
        let large = Generic(Wide())
        for model in [small as AnyObject, large as AnyObject] {
            #expect(PublishedFieldLayout.offsets(in: type(of: model)).count == 2)
        }
        let smallOffsets = PublishedFieldLayout.offsets(in: Generic<Int>.self)
        let largeOffsets = PublishedFieldLayout.offsets(in: Generic<Wide>.self)
        #expect(PublishedFieldLayout.slot(in: small, at: smallOffsets[1]) === small.$second.storage)
        #expect(PublishedFieldLayout.slot(in: large, at: largeOffsets[1]) === large.$second.storage)
    }

    @Test func objectWillChangeFiresForEveryKindOfProperty() {
        let model = SubModel()
        var count = 0
        let subscription = model.objectWillChange.sink { count += 1 }
        model.flag = true
        model.text = "x"
        model.wide = Wide(a: 1)
        model.choice = .two("y")
        model.optional = 3
        model.reference = Reference()
        model.closure = { 2 }
        model.extra = 1
        model.plain = 1
        #expect(count == 8)
        subscription.cancel()
    }
}
