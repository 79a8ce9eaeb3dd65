import HeadwaydProgram

Headwayd.main()
