return { id = "broken", title = 42 }
