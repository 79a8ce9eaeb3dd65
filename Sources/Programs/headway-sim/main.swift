import HeadwaySimProgram

HeadwaySim.main()
