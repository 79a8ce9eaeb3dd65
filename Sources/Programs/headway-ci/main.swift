import HeadwayCIProgram

HeadwayCICommand.main()
