import ColorCalc
import Combine
import Foundation

/// The chapter's starting point: `CalculatorViewModel` as the book hands it over, with the five
/// bugs QA reported. The shipped model (`ColorCalc.CalculatorViewModel`) has them fixed; this copy
/// lets `StarterBugsTests` show that the book's tests catch each one, with the book's messages.
final class StarterCalculatorViewModel: ObservableObject {
    @Published var hexText = "#0080FF"
    @Published private(set) var color: Color = Color(hex: "0080FF")!
    @Published private(set) var rgboText = "0, 128, 255, 255"
    @Published private(set) var name = "aqua 100%"

    init() {
        configure()
    }

    func process(_ input: String) {
        switch input {
        case CalculatorViewModel.Constant.clear:
            break  // issue 4
        case CalculatorViewModel.Constant.backspace:
            if hexText.count > 1 {
                hexText.removeLast(2)  // issue 2
            }
        case _ where hexText.count < 9:
            hexText.append(input)
        default:
            break
        }
    }

    private func configure() {
        let hexTextShared = $hexText.share()

        hexTextShared
            .map {
                let name = ColorName(hex: $0)

                if name != nil {
                    // issue 1
                    return String(describing: name) +
                        String(describing: Color.opacityString(forHex: $0))
                } else {
                    return "------------"
                }
            }
            .assign(to: &$name)

        let colorValuesShared = hexTextShared
            .map { Color.redGreenBlueOpacity(forHex: $0) }
            .share()

        colorValuesShared
            .map { $0 != nil ? Color(values: $0!) : .red }  // issue 3
            .assign(to: &$color)

        colorValuesShared
            .map { values -> String in
                if let values = values {
                    return [values.0, values.1, values.2, values.3]
                        .map { String(describing: Int($0 * 155)) }  // issue 5
                        .joined(separator: ", ")
                } else {
                    return "---, ---, ---, ---"
                }
            }
            .assign(to: &$rgboText)
    }
}
