return { id = "badsyntax", title = "Bad Syntax", description = "main.lua does not compile.", author = "tests",
         version = "1", api = 1 }
