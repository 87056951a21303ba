return { id = "spinner", title = "Spinner", description = "main.lua compiles, and would spin if it ran.",
         author = "tests", version = "1", api = 1 }
