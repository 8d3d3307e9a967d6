import Foundation
import NewsKit

// `news` — a terminal Hacker News reader (the books' News project). See `news --help`.

let code = NewsCommand.run(
    Array(CommandLine.arguments.dropFirst()),
    output: { FileHandle.standardOutput.write(Data($0.utf8)) },
    errorOutput: { FileHandle.standardError.write(Data($0.utf8)) }
)
exit(code)
