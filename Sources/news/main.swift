print("news: not built yet: its Combine operators have not landed.")
