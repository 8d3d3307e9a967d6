// Makes each view model, feeds it a little input and lets the main run loop turn for a moment,
// so that none of the code is dead and the build is one that works against both libraries.

import Foundation
#if OPENCOMBINE
import OpenCombine
#else
import Combine
#endif

var kept: [AnyObject] = []
var report: [String] = []

#if !OMIT_SEARCH
let search = SearchViewModel()
search.query = "swift"
search.scope = 1
kept.append(search)
#endif
#if !OMIT_FEED
let feed = FeedViewModel()
feed.refresh.send(())
feed.filter = "news"
kept.append(feed)
#endif
#if !OMIT_CHECKOUT
let checkout = CheckoutViewModel()
checkout.add(CartItem(sku: "A1", price: 250, quantity: 2))
checkout.couponCode = "SAVE10"
kept.append(checkout)
#endif
#if !OMIT_SETTINGS
let settings = SettingsViewModel()
settings.displayName = "Ada"
settings.email = "ada@example.com"
kept.append(settings)
#endif
#if !OMIT_CHAT
let chat = ChatViewModel()
chat.draft = "hello"
chat.sendDraft()
kept.append(chat)
#endif

RunLoop.main.run(until: Date(timeIntervalSinceNow: 0.7))

#if !OMIT_SEARCH
report.append("search: \(search.hits.count) hits, \(search.suggestions.count) suggestions")
#endif
#if !OMIT_FEED
report.append("feed: \(feed.posts.count) posts")
#endif
#if !OMIT_CHECKOUT
report.append("checkout: total \(checkout.total)")
#endif
#if !OMIT_SETTINGS
report.append("settings: valid \(settings.canSave)")
#endif
#if !OMIT_CHAT
report.append("chat: \(chat.messages.count) messages")
#endif
print("\(library): " + report.joined(separator: "; "))
withExtendedLifetime(kept) {}
